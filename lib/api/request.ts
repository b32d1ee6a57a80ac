// Request helpers shared by every route: request ids and validated bodies.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { randomHex } from "@/lib/random-id";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id the custom server set (or the client sent), else a fresh one. */
export function requestIdOf(req: Request): string {
  return requestIdFrom(req.headers.get("x-request-id"));
}

/** A valid `x-request-id` value as given, else a fresh id. */
export function requestIdFrom(given: string | null | undefined): string {
  return given && REQUEST_ID.test(given) ? given : `req_${randomHex(12)}`;
}

/**
 * A string that may not carry NUL: it would reach argv, a path or xdotool,
 * where Node refuses it with an internal error instead of a 400.
 */
export const textWithoutNul = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((value) => !value.includes("\0"), "must not contain a NUL character");

export function fieldPath(path: PropertyKey[]): string {
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
    .join(".")
    .replace(/\.\[/g, "[");
}

/** Turns the first zod issue into a 400 that names the field (for unknown fields: the first unknown one). */
export function validationError(error: z.ZodError): AppError {
  const issue = error.issues[0];
  if (issue?.code === "unrecognized_keys" && issue.keys.length) {
    // Strict schemas: a typo must not silently fall back to a default.
    const names = issue.keys.map((key) => fieldPath([...issue.path, key]));
    const message =
      names.length === 1 ? `Unknown field '${names[0]}'` : `Unknown fields ${names.map((n) => `'${n}'`).join(", ")}`;
    return new AppError("invalid_request", message, { param: names[0], detail: "unknown_field" });
  }
  // A body that is not an object at all names no field.
  const param = issue && issue.path.length ? fieldPath(issue.path) : undefined;
  const message = issue
    ? param
      ? `Invalid value for '${param}': ${issue.message}`
      : `Invalid request body: ${issue.message}`
    : "Invalid request";
  return new AppError("invalid_request", message, { param, detail: "invalid_request" });
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * Reads a JSON body. An empty body counts as `{}` when `optional` (endpoints
 * whose every field is optional); malformed JSON is a 400.
 */
export async function readJson(req: Request, options: { optional?: boolean } = {}): Promise<unknown> {
  return parseJsonText(await req.text(), options);
}

/** A request body's text as JSON; see readJson. */
export function parseJsonText(text: string, { optional = false } = {}): unknown {
  if (text.trim() === "") {
    if (optional) return {};
    throw new AppError("invalid_json", "Request body is empty; expected a JSON object", { detail: "invalid_json" });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "Request body is not valid JSON", { detail: "invalid_json" });
  }
}

export async function parseBody<T extends z.ZodType>(
  req: Request,
  schema: T,
  options: { optional?: boolean } = {},
): Promise<z.infer<T>> {
  return parseWith(schema, await readJson(req, options));
}
