import type { DatabaseConnection, Driver, TransactionSettings } from 'kysely';

/**
 * A Kysely driver that does what `inner` does: the base of a driver that changes one step (how a
 * connection is acquired, what its queries do after) and passes the others on. The savepoint
 * methods are there only when the inner driver has them, as Kysely looks for them.
 */
export class DelegatingDriver implements Driver {
  protected readonly inner: Driver;
  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(inner: Driver) {
    this.inner = inner;
    if (inner.savepoint) this.savepoint = (connection, name, compile) => inner.savepoint!(connection, name, compile);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = (connection, name, compile) => inner.rollbackToSavepoint!(connection, name, compile);
    if (inner.releaseSavepoint) this.releaseSavepoint = (connection, name, compile) => inner.releaseSavepoint!(connection, name, compile);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
