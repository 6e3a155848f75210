/**
 * A tiny MaxMind DB (format 2.0) writer for tests: an IPv6 tree (IPv4 networks live under ::/96, where
 * readers look for them) with 24-bit records, and a data section holding maps, strings, numbers, arrays.
 * Networks must not overlap. Enough to build a few-hundred-byte .mmdb that the `maxmind` reader opens.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Value = string | number | boolean | Value[] | { [key: string]: Value };

const TYPE = {
  pointer: 1,
  utf8: 2,
  double: 3,
  bytes: 4,
  uint16: 5,
  uint32: 6,
  map: 7,
  int32: 8,
  uint64: 9,
  uint128: 10,
  array: 11,
  boolean: 14,
} as const;

function control(type: number, size: number): Buffer {
  const head: number[] = [];
  let sizeBits: number;
  let extra: number[] = [];
  if (size < 29) sizeBits = size;
  else if (size < 285) [sizeBits, extra] = [29, [size - 29]];
  else if (size < 65_821) [sizeBits, extra] = [30, [(size - 285) >> 8, (size - 285) & 0xff]];
  else
    [sizeBits, extra] = [31, [((size - 65_821) >> 16) & 0xff, ((size - 65_821) >> 8) & 0xff, (size - 65_821) & 0xff]];
  if (type <= 7) head.push((type << 5) | sizeBits);
  else head.push(sizeBits, type - 7);
  return Buffer.from([...head, ...extra]);
}

function unsigned(type: number, value: bigint | number): Buffer {
  const bytes: number[] = [];
  let rest = BigInt(value);
  while (rest > 0n) {
    bytes.unshift(Number(rest & 0xffn));
    rest >>= 8n;
  }
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

export function encodeValue(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(TYPE.utf8, bytes.length), bytes]);
  }
  if (typeof value === 'boolean') return control(TYPE.boolean, value ? 1 : 0);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value < 2 ** 32) return unsigned(TYPE.uint32, value);
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([control(TYPE.double, 8), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(TYPE.array, value.length), ...value.map(encodeValue)]);
  const entries = Object.entries(value);
  return Buffer.concat([
    control(TYPE.map, entries.length),
    ...entries.flatMap(([key, item]) => [encodeValue(key), encodeValue(item)]),
  ]);
}

interface TreeNode {
  children: [Child, Child];
}
type Child = TreeNode | { data: number } | null;
const isNode = (child: Child): child is TreeNode => child !== null && 'children' in child;

/** Network bits in the IPv6 tree: IPv4 `a.b.c.d/n` is `::a.b.c.d/(96+n)`. */
function networkBits(cidr: string): { bits: number[]; prefix: number } {
  const [address = '', length = ''] = cidr.split('/');
  const family = isIP(address);
  if (family === 0) throw new Error(`not a network: ${cidr}`);
  const bytes =
    family === 4
      ? [...new Array<number>(12).fill(0), ...ipaddr.IPv4.parse(address).toByteArray()]
      : ipaddr.IPv6.parse(address).toByteArray();
  const prefix = Number(length) + (family === 4 ? 96 : 0);
  const bits = bytes.flatMap((byte) => [7, 6, 5, 4, 3, 2, 1, 0].map((shift) => (byte >> shift) & 1));
  return { bits, prefix };
}

export function writeMmdb(records: Record<string, Value>, databaseType = 'coinop-test'): Buffer {
  const root: TreeNode = { children: [null, null] };
  const dataParts: Buffer[] = [];
  let dataSize = 0;
  for (const [cidr, value] of Object.entries(records)) {
    const encoded = encodeValue(value);
    const offset = dataSize;
    dataParts.push(encoded);
    dataSize += encoded.length;
    const { bits, prefix } = networkBits(cidr);
    let node = root;
    for (let depth = 0; depth < prefix; depth += 1) {
      const bit = bits[depth] as 0 | 1;
      if (depth === prefix - 1) {
        node.children[bit] = { data: offset };
        break;
      }
      const child = node.children[bit];
      const next: TreeNode = isNode(child) ? child : { children: [null, null] };
      node.children[bit] = next;
      node = next;
    }
  }
  // Number the nodes breadth first; the root is 0.
  const order: TreeNode[] = [root];
  const index = new Map<TreeNode, number>([[root, 0]]);
  for (let i = 0; i < order.length; i += 1) {
    for (const child of (order[i] as TreeNode).children) {
      if (isNode(child)) {
        index.set(child, order.length);
        order.push(child);
      }
    }
  }
  const nodeCount = order.length;
  const tree = Buffer.alloc(nodeCount * 6);
  order.forEach((node, i) => {
    node.children.forEach((child, side) => {
      const record =
        child === null ? nodeCount : isNode(child) ? (index.get(child) as number) : nodeCount + 16 + child.data;
      tree.writeUIntBE(record, i * 6 + side * 3, 3);
    });
  });
  const metadata = encodeValue({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_700_000_000,
    database_type: databaseType,
    description: { en: 'coinop test database' },
    ip_version: 6,
    languages: ['en'],
    node_count: nodeCount,
    record_size: 24,
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...dataParts,
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com'),
    metadata,
  ]);
}
