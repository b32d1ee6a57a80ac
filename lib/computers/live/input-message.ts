// The client → server messages of the /ws live view (docs/contract.md "Streams"),
// validated before anything reaches a driver. Coordinates are frame pixels,
// bounded by the largest display a session can have.
import { z } from "zod";
import { parseJsonText, parseWith, textWithoutNul } from "@/lib/api/request";
import type { LiveInput } from "@/lib/computers/driver";

const MAX_COORDINATE = 10_000;
const coordinate = z.number().finite().min(0).max(MAX_COORDINATE);
const delta = z.number().finite().min(-MAX_COORDINATE).max(MAX_COORDINATE);

const liveInput = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("pointer"),
    action: z.enum(["move", "down", "up"]),
    x: coordinate,
    y: coordinate,
    button: z.enum(["left", "middle", "right"]).optional(),
  }),
  z.strictObject({ type: z.literal("wheel"), x: coordinate, y: coordinate, dx: delta, dy: delta }),
  z.strictObject({ type: z.literal("key"), action: z.enum(["down", "up"]), key: textWithoutNul(64, 1) }),
  z.strictObject({ type: z.literal("text"), text: textWithoutNul(10_000, 1) }),
]);

/** One input message; throws AppError (invalid_json / invalid_request) naming what is wrong. */
export function parseLiveInput(text: string): LiveInput {
  return parseWith(liveInput, parseJsonText(text));
}
