import type { Compilable, CompiledQuery } from 'kysely';
import { directReaderOf, type DirectReader } from './database.ts';

type Value = string | number;

/**
 * Hot queries of a fixed shape, built and compiled by Kysely once, then run with new values only:
 * building and compiling a query costs more than SQLite takes to answer a short one. `build` is
 * called once per `shape` with stand-ins for `values`; each must reach the compiled query as a
 * parameter (checked), and the stand-ins' places are where later values go. They run through the
 * database's direct reader when it has one (`directReaderOf`: straight on SQLite's connection when
 * no transaction is open, as named prepared statements on PostgreSQL), so only reads.
 */
export class PreparedQueries {
  private readonly db: { executeQuery<R>(query: CompiledQuery<R>): Promise<{ rows: R[] }> };
  private readonly compiled = new Map<string, { query: CompiledQuery; places: Array<number | undefined> }>();
  private readonly direct: DirectReader | undefined;

  constructor(db: { executeQuery<R>(query: CompiledQuery<R>): Promise<{ rows: R[] }> }) {
    this.db = db;
    this.direct = directReaderOf(db);
  }

  async rows<R>(shape: string, values: readonly Value[], build: (values: readonly Value[]) => Compilable<R>): Promise<R[]> {
    let entry = this.compiled.get(shape);
    if (!entry) {
      // Stand-ins no real value takes: a NUL-led string, a large negative integer.
      const standIns = values.map((v, i) => (typeof v === 'number' ? -(2 ** 52) - i : `\u0000prepared-${i}`));
      const query = build(standIns).compile();
      const places = query.parameters.map((p) => {
        const at = standIns.indexOf(p as Value);
        return at === -1 ? undefined : at;
      });
      if (standIns.some((_, i) => !places.includes(i))) throw new Error(`prepared query ${shape}: a value is not a parameter`);
      entry = { query, places };
      this.compiled.set(shape, entry);
    }
    const { query, places } = entry;
    const parameters = query.parameters.map((p, k) => (places[k] === undefined ? p : values[places[k]!]));
    const direct = this.direct?.(query.sql, parameters);
    const rows = direct && (await direct);
    if (rows) return rows as R[];
    const result = await this.db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
    return result.rows;
  }
}
