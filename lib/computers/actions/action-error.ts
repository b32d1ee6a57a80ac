// The one error drivers throw for failures a client should see. Drivers never
// throw AppError (they know nothing about HTTP); `asAppError` maps these reasons
// to statuses, and `asActionResult` turns `failed` and `tab_not_found` into an
// ActionResult with status "error" for the action endpoints.
export type ActionErrorReason =
  /** Bad input the zod schema could not catch (a selector, a URL scheme). → 400 */
  | "invalid"
  /** The action type exists in the API but this driver does not do it (yet). → 400 */
  | "not_supported"
  /** The action is for another kind of computer (tabs on a desktop). → 400 */
  | "wrong_kind"
  /** Unknown tab id. → 404 on tab endpoints, status "error" in /execute */
  | "tab_not_found"
  /** Refused: closing the last remaining tab. → 409 */
  | "last_tab"
  /** The request conflicts with the computer's state (a snapshot of another base image). → 409 */
  | "conflict"
  /** The action ran and failed (element gone, navigation error, timed out). → 200 status "error"; 502 elsewhere */
  | "failed";

export class ActionError extends Error {
  readonly reason: ActionErrorReason;
  readonly param?: string;

  constructor(reason: ActionErrorReason, message: string, options: { param?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ActionError";
    this.reason = reason;
    this.param = options.param;
  }
}

/**
 * Duck-typed check: Next may load this module more than once (instrumentation and
 * route bundles), so `instanceof` is not reliable across them.
 */
export function isActionError(value: unknown): value is ActionError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { name?: unknown }).name === "ActionError" &&
    typeof (value as { reason?: unknown }).reason === "string"
  );
}
