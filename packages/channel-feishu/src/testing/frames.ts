import protobuf from "protobufjs";

/**
 * The long connection's frame, `pbbp2.Frame`, as the SDK's generated codec reads and writes it:
 * required `SeqID` (1, uint64), `LogID` (2, uint64), `service` (3, int32), `method` (4, int32),
 * repeated `headers` (5, `Header { key = 1; value = 2 }`), optional `payload_encoding` (6),
 * `payload_type` (7), `payload` (8, bytes) and `LogIDNew` (9). Declared here with protobufjs'
 * reflection API from those field numbers, so the fake encodes and decodes the same bytes.
 */
const Header = new protobuf.Type("Header")
  .add(new protobuf.Field("key", 1, "string", "required"))
  .add(new protobuf.Field("value", 2, "string", "required"));

const Frame = new protobuf.Type("Frame")
  .add(new protobuf.Field("SeqID", 1, "uint64", "required"))
  .add(new protobuf.Field("LogID", 2, "uint64", "required"))
  .add(new protobuf.Field("service", 3, "int32", "required"))
  .add(new protobuf.Field("method", 4, "int32", "required"))
  .add(new protobuf.Field("headers", 5, "Header", "repeated"))
  .add(new protobuf.Field("payloadEncoding", 6, "string", "optional"))
  .add(new protobuf.Field("payloadType", 7, "string", "optional"))
  .add(new protobuf.Field("payload", 8, "bytes", "optional"))
  .add(new protobuf.Field("LogIDNew", 9, "string", "optional"));

new protobuf.Root().define("pbbp2").add(Header).add(Frame);

/** `method` of a frame: control frames carry ping/pong, data frames carry events and their acks. */
export const FrameMethod = { control: 0, data: 1 } as const;

/** One frame, with its headers as a plain record. */
export interface LarkFrame {
  seqId: number;
  logId: number;
  service: number;
  method: number;
  headers: Record<string, string>;
  payload?: Uint8Array;
}

/** The frame's bytes on the WebSocket. */
export function encodeFrame(frame: LarkFrame): Uint8Array {
  const message = Frame.fromObject({
    SeqID: frame.seqId,
    LogID: frame.logId,
    service: frame.service,
    method: frame.method,
    headers: Object.entries(frame.headers).map(([key, value]) => ({ key, value })),
    ...(frame.payload !== undefined ? { payload: frame.payload } : {}),
  });
  return Frame.encode(message).finish();
}

/** A frame from its bytes; throws when they are not a `pbbp2.Frame`. */
export function decodeFrame(bytes: Uint8Array): LarkFrame {
  const message = Frame.toObject(Frame.decode(bytes), { longs: Number, bytes: Buffer }) as {
    SeqID: number;
    LogID: number;
    service: number;
    method: number;
    headers?: { key: string; value: string }[];
    payload?: Uint8Array;
  };
  return {
    seqId: message.SeqID,
    logId: message.LogID,
    service: message.service,
    method: message.method,
    headers: Object.fromEntries((message.headers ?? []).map((h) => [h.key, h.value])),
    ...(message.payload !== undefined ? { payload: message.payload } : {}),
  };
}
