// What a session file may be called (docs/files.md "Names"). A name is a label and the
// desktop's file name in /workspace/uploads, never a path on the host (the bytes are
// stored under the file's id), but it is still refused when it looks like a path:
// a client that sends `../x` or `/etc/passwd` made a mistake worth hearing about. Pure.
import { AppError } from "@/lib/api/errors";

/** Bytes of a name in UTF-8: most file systems allow 255. */
export const MAX_NAME_BYTES = 255;

/** C0 and C1 control characters (NUL, newline, escape…) and DEL. */
function isControl(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** Why `name` cannot name a file, or null when it can. */
export function nameProblem(name: string): string | null {
  if (name.length === 0) return "is empty";
  if (Buffer.byteLength(name, "utf8") > MAX_NAME_BYTES) return `is longer than ${MAX_NAME_BYTES} bytes`;
  if ([...name].some(isControl)) return "contains a control character";
  if (name.startsWith("/") || /^[a-zA-Z]:[\\/]/.test(name)) return "is an absolute path";
  if (name.includes("/") || name.includes("\\")) return "contains a path separator (/ or \\)";
  if (name === "." || name === "..") return `is '${name}'`;
  if (name.trim() !== name || name.trim() === "") return "starts or ends with white space";
  return null;
}

/** The name as given, or a 400 naming the field and the problem. */
export function checkedName(name: string, param: string): string {
  const problem = nameProblem(name);
  if (problem) {
    throw new AppError("invalid_request", `${param}: the file name ${JSON.stringify(name.slice(0, 80))} ${problem}`, {
      param,
      detail: "invalid_file_name",
    });
  }
  return name;
}

/**
 * A desktop upload's `path`: a folder under /workspace/uploads given relative to it
 * (`reports/2026`), each segment a valid name; "" or "/" is the folder itself.
 */
export function checkedFolder(path: string | undefined, param: string): string[] {
  if (path === undefined) return [];
  const trimmed = path.replace(/^\/workspace\/uploads(\/|$)/, "");
  if (trimmed === "" || trimmed === "/") return [];
  if (trimmed.startsWith("/")) {
    throw new AppError(
      "invalid_request",
      `${param}: '${path.slice(0, 80)}' is an absolute path outside /workspace/uploads; give a folder relative to it`,
      { param, detail: "invalid_file_path" },
    );
  }
  const segments = trimmed.replace(/\/$/, "").split("/");
  if (segments.length > 16) {
    throw new AppError("invalid_request", `${param}: more than 16 folders deep`, {
      param,
      detail: "invalid_file_path",
    });
  }
  for (const segment of segments) {
    const problem = nameProblem(segment);
    if (problem) {
      throw new AppError(
        "invalid_request",
        `${param}: the folder ${JSON.stringify(segment.slice(0, 80))} in '${path.slice(0, 80)}' ${problem}`,
        { param, detail: "invalid_file_path" },
      );
    }
  }
  return segments;
}

/** A name Chromium or a desktop program gave a download, made acceptable (downloads are not refused). */
export function downloadName(suggested: string): string {
  let name = [...suggested]
    .filter((char) => !isControl(char))
    .join("")
    .replace(/[/\\]/g, "_")
    .trim();
  if (name === "" || name === "." || name === "..") name = "download";
  while (Buffer.byteLength(name, "utf8") > MAX_NAME_BYTES) name = name.slice(0, -1);
  return name;
}
