/** The key-value browser: `#/kv` the wallet's buckets, `#/kv/<bucket>` its keys, `#/kv/<bucket>/<key>` one value. */
import type { PageProps } from '../app.js';
import { BucketList } from './kv/bucket-list.js';
import { KeyList } from './kv/key-list.js';
import './kv/kv.css';

export function KeyValue({ route }: PageProps) {
  const [bucket, selected] = route;
  return bucket === undefined ? <BucketList /> : <KeyList key={bucket} bucket={bucket} selected={selected} />;
}
