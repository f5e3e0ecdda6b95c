import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { directReaderOf, directRunnerOf, type DirectReader, type DirectRunner } from './database.ts';

type Value = string | number;
/** A database or a transaction: what runs a compiled query. */
type Executor = { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };

/**
 * Hot queries of a fixed shape, built and compiled by Kysely once, then run with new values only:
 * building and compiling a query costs more than SQLite takes to answer a short one. `build` is
 * called once per `shape` with stand-ins for `values`; each must reach the compiled query as a
 * parameter (checked), and the stand-ins' places are where later values go. They run through the
 * database's direct reader when it has one (`directReaderOf`: straight on SQLite's connection when
 * no transaction is open, as named prepared statements on PostgreSQL), so only reads; `runIn` runs
 * one inside a transaction (the statements of an upload's commit), on SQLite straight on the
 * connection that transaction holds (`directRunnerOf`).
 */
export class PreparedQueries {
  private readonly db: Executor;
  private readonly compiled = new Map<string, { query: CompiledQuery; places: Array<number | undefined> }>();
  private readonly direct: DirectReader | undefined;
  private readonly runner: DirectRunner | undefined;

  constructor(db: Executor) {
    this.db = db;
    this.direct = directReaderOf(db);
    this.runner = directRunnerOf(db);
  }

  async rows<R>(shape: string, values: readonly Value[], build: (values: readonly Value[]) => Compilable<R>): Promise<R[]> {
    const query = this.compiledFor(shape, values, build);
    const direct = this.direct?.(query.sql, query.parameters);
    const rows = direct && (await direct);
    if (rows) return rows as R[];
    const result = await this.db.executeQuery<R>(query);
    return result.rows;
  }

  /**
   * The same, run inside `trx` (a write, or a read that must see the transaction's writes): built
   * and compiled once per shape, then only run, on the transaction's connection.
   */
  runIn<R>(trx: Executor & { readonly isTransaction: boolean }, shape: string, values: readonly Value[], build: (values: readonly Value[]) => Compilable<R>): Promise<QueryResult<R>> {
    const query = this.compiledFor(shape, values, build);
    // Straight on SQLite's connection, which the transaction holds (directRunnerOf); only for a
    // transaction, so that a caller outside one never runs inside another's.
    const direct = trx.isTransaction ? this.runner?.(query.sql, query.parameters) : undefined;
    return direct ? Promise.resolve(direct as QueryResult<R>) : trx.executeQuery<R>(query);
  }

  /** The query of `shape` compiled once (the stand-ins' places noted), with `values` in their places. */
  private compiledFor<R>(shape: string, values: readonly Value[], build: (values: readonly Value[]) => Compilable<R>): CompiledQuery<R> {
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
    return { ...query, parameters } as CompiledQuery<R>;
  }
}
