/**
 * Whose files and Spaces a call may see: a whole account (its id, or a key's principal without
 * a Space), or only one Space of it (a key bound to a Space). Anything outside is not found,
 * exactly as another account's would be.
 */
export type Owner = string | { accountId: string; spaceId?: string | null };

export function accountIdOf(owner: Owner): string {
  return typeof owner === 'string' ? owner : owner.accountId;
}

/** The Space an owner is confined to, when its key is bound to one. */
export function boundSpace(owner: Owner): string | undefined {
  return typeof owner === 'string' ? undefined : (owner.spaceId ?? undefined);
}
