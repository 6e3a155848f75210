import type pg from 'pg';
import { READ_TIMEOUT_MESSAGE } from '../store-errors.js';

/**
 * Runs `work` on a client checked out of `pool`. While a client is checked out pg-pool listens to none of
 * its events, so a connection lost mid-transaction (server restart, admin shutdown, network reset) would
 * raise an unhandled 'error' and end the process. Here the error fails only the work on that client, and
 * a client whose connection broke is destroyed on release instead of going back to the pool.
 */
export async function withPooledClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error): void => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    return await work(client);
  } catch (error) {
    // A query that timed out leaves the connection busy with it: never hand that connection out again.
    if (broken === undefined && error instanceof Error && error.message.includes(READ_TIMEOUT_MESSAGE)) broken = error;
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}
