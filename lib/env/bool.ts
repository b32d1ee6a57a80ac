// The boolean spelling every setting accepts: 1/0, true/false, yes/no (empty is false).
import { z } from "zod";

export const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");
