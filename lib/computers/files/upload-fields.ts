// An upload's named fields as one zod schema (docs/files.md), for the tools that describe them (MCP's
// upload_file): the limits the service applies, so a tool advertises no looser ones. What a name or a
// folder may be beyond its length (no path in a name, no control characters, bytes rather than
// characters) stays `checkedName`'s and `checkedFolder`'s, which answer a 400 naming the problem.
import { z } from "zod";
import { MAX_NAME_BYTES } from "@/lib/computers/files/file-names";
import { FIELD_MAX_BYTES } from "@/lib/computers/files/multipart-upload";

/** A media type's longest spelling: a type and a subtype of at most 127 characters each (RFC 6838). */
export const MAX_MIME_TYPE_LENGTH = 255;

export const uploadFieldsSchema = z.object({
  name: z.string().min(1).max(MAX_NAME_BYTES),
  mime_type: z.string().max(MAX_MIME_TYPE_LENGTH).optional(),
  path: z.string().max(FIELD_MAX_BYTES).optional(),
});
