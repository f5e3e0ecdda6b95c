import { sql, type Kysely } from 'kysely';
import type { Schema } from '../schema.ts';

export interface WalrusQuiltStatus {
  quiltId: string;
  endEpoch: number;
  costFrost: number;
  liveBlobs: number;
  liveBytes: number;
}

/** The Walrus quilts' storage: end epochs and costs, for `tessera walrus status` and renewal. */
export class WalrusQuiltsRepository {
  private readonly db: Kysely<Schema>;
  constructor(db: Kysely<Schema>) {
    this.db = db;
  }

  /** A quilt stored or renewed: its end epoch only grows, its cost adds up. */
  async record(quilt: { quiltId: string; endEpoch: number; storedEpoch: number | undefined; costFrost: number }, now = Date.now()): Promise<void> {
    const storedEpoch = quilt.storedEpoch ?? (await this.currentEpoch()) ?? 0;
    await this.db
      .insertInto('walrus_quilts')
      .values({ quilt_id: quilt.quiltId, end_epoch: quilt.endEpoch, stored_epoch: storedEpoch, cost_frost: quilt.costFrost, updated_at: now })
      .onConflict((oc) =>
        oc.column('quilt_id').doUpdateSet({
          end_epoch: sql`case when walrus_quilts.end_epoch > ${quilt.endEpoch} then walrus_quilts.end_epoch else ${quilt.endEpoch} end`,
          stored_epoch: sql`case when walrus_quilts.stored_epoch > ${storedEpoch} then walrus_quilts.stored_epoch else ${storedEpoch} end`,
          cost_frost: sql`walrus_quilts.cost_frost + ${quilt.costFrost}`,
          updated_at: now,
        }),
      )
      .execute();
  }

  /** The latest epoch a publisher answer showed: the network's "now" as far as we know. */
  async currentEpoch(): Promise<number | undefined> {
    const row = await this.db.selectFrom('walrus_quilts').select((eb) => eb.fn.max<number>('stored_epoch').as('epoch')).executeTakeFirst();
    return row?.epoch === null || row?.epoch === undefined ? undefined : Number(row.epoch);
  }

  /** Every quilt by end epoch, soonest first, with the live files it still holds. */
  async status(): Promise<WalrusQuiltStatus[]> {
    const rows = await this.db
      .selectFrom('walrus_quilts as q')
      .leftJoin('blobs as b', 'b.quilt_id', 'q.quilt_id')
      .select((eb) => ['q.quilt_id', 'q.end_epoch', 'q.cost_frost', eb.fn.count<number>('b.blob_id').as('live_blobs'), eb.fn.sum<number>('b.size_bytes').as('live_bytes')])
      .groupBy(['q.quilt_id', 'q.end_epoch', 'q.cost_frost'])
      .orderBy('q.end_epoch')
      .orderBy('q.quilt_id')
      .execute();
    return rows.map((r) => ({ quiltId: r.quilt_id, endEpoch: Number(r.end_epoch), costFrost: Number(r.cost_frost), liveBlobs: Number(r.live_blobs), liveBytes: Number(r.live_bytes ?? 0) }));
  }

  /** Quilts that lapse by `epoch` and still hold a live file: the ones worth renewing. */
  async dueBy(epoch: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('walrus_quilts as q')
      .select('q.quilt_id')
      .where('q.end_epoch', '<=', epoch)
      .where((eb) => eb.exists(eb.selectFrom('blobs').select('blobs.blob_id').whereRef('blobs.quilt_id', '=', 'q.quilt_id')))
      .orderBy('q.end_epoch')
      .execute();
    return rows.map((r) => r.quilt_id);
  }
}
