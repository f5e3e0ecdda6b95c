/**
 * What a revoked key gets from a server, as TESSERA_KEY_CACHE_MS promises (docs/configuration.md):
 * on SQLite the very next request is refused; on PostgreSQL a replica hears of the revocation by a
 * NOTIFY, a moment after the revoking commit, so the status is asked again until it changes (the
 * exact bound is tested with a clock of the test's own in test/services/keys.service.test.ts; the
 * deadline here only catches a key that is never refused).
 */
export async function statusAfterRevocation(dialect: 'sqlite' | 'postgres', ask: () => Promise<number>): Promise<number> {
  let status = await ask();
  if (dialect === 'sqlite') return status;
  const deadline = Date.now() + 15_000;
  while (status !== 401 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = await ask();
  }
  return status;
}
