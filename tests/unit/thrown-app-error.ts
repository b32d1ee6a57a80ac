// The AppError a call throws, for unit tests of parsers that answer 400s; a call
// that does not throw fails the test.
import { expect } from "vitest";
import { AppError } from "@/lib/api/errors";

export function thrownAppError(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected an AppError");
}
