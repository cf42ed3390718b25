/** An attribute value as a DynamoDB stream record carries it in a Lambda event (binary values base64). */
export interface StreamAttribute {
  readonly S?: string;
  readonly N?: string;
  readonly BOOL?: boolean;
  readonly NULL?: boolean;
  readonly M?: Readonly<Record<string, StreamAttribute>>;
  readonly L?: readonly StreamAttribute[];
  readonly SS?: readonly string[];
  readonly NS?: readonly string[];
  readonly B?: string;
  readonly BS?: readonly string[];
}

/**
 * A stream image (`Keys`, `NewImage`, `OldImage`) as plain values: strings, numbers, booleans, null, maps, lists,
 * sets as Sets, binaries as Buffers. The Lambda runtime's SDK has a converter too, but it is an SDK-internal
 * package the runtime does not promise; this is the whole format.
 */
export function unmarshallImage(image: Readonly<Record<string, StreamAttribute>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, attributeValue(value, name)]));
}

function attributeValue(value: StreamAttribute, path: string): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return number(value.N, path);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.M !== undefined) {
    return Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, attributeValue(v, `${path}.${k}`)]));
  }
  if (value.L !== undefined) return value.L.map((v, i) => attributeValue(v, `${path}[${i}]`));
  if (value.SS !== undefined) return new Set(value.SS);
  if (value.NS !== undefined) return new Set(value.NS.map((n) => number(n, path)));
  if (value.B !== undefined) return Buffer.from(value.B, 'base64');
  if (value.BS !== undefined) return new Set(value.BS.map((b) => Buffer.from(b, 'base64')));
  throw new Error(`stream image: ${path} has no attribute type this reader knows (${Object.keys(value).join(', ')})`);
}

function number(text: string, path: string): number {
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`stream image: ${path} is not a number: ${text}`);
  return n;
}
