/** A log row as the logs feature reads it (logs.page.ts pages through them). */
export interface LogRow {
  id: string;
  method: string;
  path: string;
  endpoint: string;
  status_code: number;
  response_time_ms: number;
  error: string | null;
  created_at: number;
  cost: number;
  balance: number;
  delivery_id: string | null;
  /** The reason an operator gave (manage rows of the operator API only). */
  note: string | null;
  /** The row's place in the log: breaks ties on time when paging. */
  seq: number;
}
