// The protobuf binary of an operation's JSON response, written straight from the JSON: the bytes
// toBinary(fromJson(desc, json, { ignoreUnknownFields: true })) decodes to, without building the message first
// (fromJson of a 1000-row list costs more than the list's query). The JSON is the standard protobuf JSON mapping
// the operation table's responses use; keys the message lacks are skipped, as fromJson's ignoreUnknownFields does.
// One compiled writer per message type, like protobuf-es's own toBinary; the well-known types other than
// Timestamp, Duration and FieldMask go through protobuf-es itself.
import {
  create,
  fromJson,
  ScalarType,
  toBinary,
  type DescEnum,
  type DescField,
  type DescMessage,
  type JsonValue,
  type Message,
  type Registry,
} from '@bufbuild/protobuf';
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

type Json = Record<string, unknown>;
/** Writes one value of a field, its tag included. */
type ValueWriter = (w: BinaryWriter, value: unknown) => void;
/** Writes a field of a JSON object, when set. */
type FieldWriter = (w: BinaryWriter, json: Json) => void;
type MessageWriter = (w: BinaryWriter, json: Json) => void;

const writers = new WeakMap<DescMessage, MessageWriter>();

/** The binary encoding of `json` as the message `desc`. */
export function jsonToBinary(desc: DescMessage, json: Json, registry: Registry): Uint8Array {
  const w = new BinaryWriter();
  messageWriter(desc, registry)(w, json);
  return w.finish();
}

/**
 * A message of type `desc` that toBinary writes as `json`'s encoding (binary answers only: toJson leaves unknown
 * fields out). The encoding rides as ONE unknown field: the first field's tag, and every byte after it as its
 * "data", which toBinary writes back after that tag as they are: one copy, no re-parse.
 */
export function binaryAnswer(desc: DescMessage, json: Json, registry: Registry): Message {
  const bytes = jsonToBinary(desc, json, registry);
  const message = create(desc);
  if (bytes.length === 0) return message;
  const reader = new BinaryReader(bytes);
  const [no, wireType] = reader.tag();
  message.$unknown = [{ no, wireType, data: bytes.subarray(reader.pos) }];
  return message;
}

function messageWriter(desc: DescMessage, registry: Registry): MessageWriter {
  let compiled = writers.get(desc) ?? wellKnownWriter(desc, registry);
  if (compiled) return compiled;
  const fields: FieldWriter[] = [];
  compiled = (w, json) => {
    for (let i = 0; i < fields.length; i++) fields[i](w, json);
  };
  writers.set(desc, compiled); // before the fields: recursive types find it
  for (const field of [...desc.fields].sort((a, b) => a.number - b.number)) fields.push(fieldWriter(field, registry));
  return compiled;
}

function fieldWriter(field: DescField, registry: Registry): FieldWriter {
  const { jsonName, name } = field;
  const read = (json: Json): unknown => {
    const v = json[jsonName];
    return v === undefined ? json[name] : v;
  };
  switch (field.fieldKind) {
    case 'list': {
      const write =
        field.listKind === 'message'
          ? messageValue(field.number, field.message, registry)
          : field.listKind === 'enum'
            ? enumValue(field.number, field.enum)
            : scalarValue(field.number, field.scalar);
      const packed =
        field.packed && field.listKind !== 'message' && field.scalar !== ScalarType.STRING && field.scalar !== ScalarType.BYTES;
      if (packed) {
        // A packed list: one length-delimited run of values without their tags.
        const bare = field.listKind === 'enum' ? enumValue(0, field.enum, true) : scalarValue(0, field.scalar!, true);
        return (w, json) => {
          const list = read(json);
          if (!Array.isArray(list) || list.length === 0) return;
          w.tag(field.number, WireType.LengthDelimited).fork();
          for (const v of list) bare(w, v);
          w.join();
        };
      }
      return (w, json) => {
        const list = read(json);
        if (Array.isArray(list)) for (const v of list) if (v !== null) write(w, v);
      };
    }
    case 'map': {
      const writeKey = scalarValue(1, field.mapKey);
      const writeValue =
        field.mapKind === 'message'
          ? messageValue(2, field.message, registry)
          : field.mapKind === 'enum'
            ? enumValue(2, field.enum)
            : scalarValue(2, field.scalar);
      const keyOf = mapKeyParser(field.mapKey);
      return (w, json) => {
        const map = read(json);
        if (map === null || typeof map !== 'object') return;
        for (const [k, v] of Object.entries(map as Json)) {
          if (v === null) continue;
          w.tag(field.number, WireType.LengthDelimited).fork();
          writeKey(w, keyOf(k));
          writeValue(w, v);
          w.join();
        }
      };
    }
    case 'message': {
      const write = messageValue(field.number, field.message, registry);
      return (w, json) => {
        const v = read(json);
        if (v !== undefined && v !== null) write(w, v);
      };
    }
    case 'enum': {
      const write = enumValue(field.number, field.enum);
      const implicit = field.presence === IMPLICIT && !field.oneof;
      const numbers = enumNumbers(field.enum);
      return (w, json) => {
        const v = read(json);
        if (v === undefined || v === null) return;
        if (implicit && (typeof v === 'number' ? v : numbers.get(v as string)) === field.enum.values[0].number) return;
        write(w, v);
      };
    }
    case 'scalar': {
      const write = scalarValue(field.number, field.scalar);
      const implicit = field.presence === IMPLICIT && !field.oneof;
      return (w, json) => {
        const v = read(json);
        if (v === undefined || v === null) return;
        if (implicit && isZero(field.scalar, v)) return;
        write(w, v);
      };
    }
  }
}

/** FeatureSet_FieldPresence.IMPLICIT: proto3 scalars without `optional`. */
const IMPLICIT = 2;

function isZero(scalar: ScalarType, v: unknown): boolean {
  switch (scalar) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return v === '';
    case ScalarType.BOOL:
      return v === false;
    default:
      return Number(v) === 0 && !Object.is(Number(v), -0);
  }
}

function messageValue(no: number, desc: DescMessage, registry: Registry): ValueWriter {
  let write: MessageWriter | undefined;
  return (w, value) => {
    write ??= messageWriter(desc, registry);
    w.tag(no, WireType.LengthDelimited).fork();
    write(w, value as Json);
    w.join();
  };
}

const enumCache = new WeakMap<DescEnum, Map<string, number>>();
function enumNumbers(desc: DescEnum): Map<string, number> {
  let m = enumCache.get(desc);
  if (!m) enumCache.set(desc, (m = new Map(desc.values.map((v) => [v.name, v.number]))));
  return m;
}

function enumValue(no: number, desc: DescEnum, bare = false): ValueWriter {
  const numbers = enumNumbers(desc);
  return (w, value) => {
    const n = typeof value === 'number' ? value : numbers.get(value as string);
    if (n === undefined) return; // a name this version of the protos lacks: dropped, as ignoreUnknownFields does
    if (!bare) w.tag(no, WireType.Varint);
    w.int32(n);
  };
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const int64 = (v: unknown): string | number => (typeof v === 'number' ? v : String(v));

function scalarValue(no: number, scalar: ScalarType, bare = false): ValueWriter {
  const write = ((): [WireType, (w: BinaryWriter, v: unknown) => void] => {
    switch (scalar) {
      case ScalarType.STRING:
        return [WireType.LengthDelimited, (w, v) => w.string(v as string)];
      case ScalarType.BOOL:
        return [WireType.Varint, (w, v) => w.bool(v === true || v === 'true')];
      case ScalarType.INT32:
        return [WireType.Varint, (w, v) => w.int32(num(v))];
      case ScalarType.UINT32:
        return [WireType.Varint, (w, v) => w.uint32(num(v))];
      case ScalarType.SINT32:
        return [WireType.Varint, (w, v) => w.sint32(num(v))];
      case ScalarType.FIXED32:
        return [WireType.Bit32, (w, v) => w.fixed32(num(v))];
      case ScalarType.SFIXED32:
        return [WireType.Bit32, (w, v) => w.sfixed32(num(v))];
      case ScalarType.FLOAT:
        return [WireType.Bit32, (w, v) => w.float(num(v))];
      case ScalarType.DOUBLE:
        return [WireType.Bit64, (w, v) => w.double(num(v))];
      case ScalarType.INT64:
        return [WireType.Varint, (w, v) => w.int64(int64(v))];
      case ScalarType.UINT64:
        return [WireType.Varint, (w, v) => w.uint64(int64(v))];
      case ScalarType.SINT64:
        return [WireType.Varint, (w, v) => w.sint64(int64(v))];
      case ScalarType.FIXED64:
        return [WireType.Bit64, (w, v) => w.fixed64(int64(v))];
      case ScalarType.SFIXED64:
        return [WireType.Bit64, (w, v) => w.sfixed64(int64(v))];
      case ScalarType.BYTES:
        return [WireType.LengthDelimited, (w, v) => w.bytes(Buffer.from(v as string, 'base64'))];
    }
  })();
  const [wireType, writeValue] = write;
  return bare ? writeValue : (w, v) => writeValue(w.tag(no, wireType), v);
}

function mapKeyParser(scalar: ScalarType): (k: string) => unknown {
  return scalar === ScalarType.BOOL ? (k) => k === 'true' : (k) => k;
}

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i;

/** Timestamp, Duration and FieldMask from their JSON strings; the other google.protobuf types through protobuf-es. */
function wellKnownWriter(desc: DescMessage, registry: Registry): MessageWriter | undefined {
  if (!desc.typeName.startsWith('google.protobuf.')) return undefined;
  const secondsAndNanos = (w: BinaryWriter, seconds: number, nanos: number) => {
    if (seconds !== 0) w.tag(1, WireType.Varint).int64(seconds);
    if (nanos !== 0) w.tag(2, WireType.Varint).int32(nanos);
  };
  switch (desc.typeName) {
    case 'google.protobuf.Timestamp':
      return (w, json) => {
        const m = RFC3339.exec(json as unknown as string);
        if (!m) throw new Error(`not an RFC 3339 timestamp: ${String(json)}`);
        const seconds = Math.floor(Date.parse(`${m[1]}${m[3]}`) / 1000);
        secondsAndNanos(w, seconds, m[2] ? Number(m[2].padEnd(9, '0')) : 0);
      };
    case 'google.protobuf.Duration':
      return (w, json) => {
        const m = /^(-?)(\d+)(?:\.(\d{1,9}))?s$/.exec(json as unknown as string);
        if (!m) throw new Error(`not a duration: ${String(json)}`);
        const sign = m[1] ? -1 : 1;
        secondsAndNanos(w, sign * Number(m[2]), sign * (m[3] ? Number(m[3].padEnd(9, '0')) : 0));
      };
    case 'google.protobuf.FieldMask':
      return (w, json) => {
        const text = json as unknown as string;
        if (text === '') return;
        for (const path of text.split(',')) w.tag(1, WireType.LengthDelimited).string(path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
      };
    default:
      return (w, json) => {
        w.raw(toBinary(desc, fromJson(desc, json as unknown as JsonValue, { registry, ignoreUnknownFields: true })));
      };
  }
}
