// @needs nothing
import { describe, expect, it } from "vitest";
import { checkedFolder, checkedName, downloadName, nameProblem } from "@/lib/computers/files/file-names";
import { mimeTypeOf } from "@/lib/computers/files/mime-types";
import { parseListing } from "@/lib/computers/desktop/desktop-files";
import { contentDisposition } from "@/lib/computers/files/file-response";
import { requestBodyLimit } from "@/lib/api/body-limit";

describe("session file names", () => {
  it("accepts ordinary names, unicode and spaces included", () => {
    for (const name of ["report.pdf", "scan 2026.bin", "Übersicht – Q1.xlsx", ".env", "a..b"]) {
      expect(nameProblem(name), name).toBeNull();
    }
  });

  it("refuses paths, dot names, control characters, edge white space and names over 255 bytes", () => {
    const cases: Array<[string, RegExp]> = [
      ["", /empty/],
      ["..", /'\.\.'/],
      [".", /'\.'/],
      ["../x", /separator/],
      ["/etc/passwd", /absolute/],
      ["C:\\x", /absolute/],
      ["a\\b", /separator/],
      ["bell\u0007", /control/],
      ["nul\u0000", /control/],
      ["line\nbreak", /control/],
      [" lead", /white space/],
      ["é".repeat(128), /255 bytes/],
    ];
    for (const [name, why] of cases) expect(nameProblem(name), JSON.stringify(name)).toMatch(why);
    expect(() => checkedName("../x", "file")).toThrow(/file: the file name/);
  });

  it("a desktop folder is relative to /workspace/uploads, each part a valid name", () => {
    expect(checkedFolder(undefined, "path")).toEqual([]);
    expect(checkedFolder("/workspace/uploads", "path")).toEqual([]);
    expect(checkedFolder("reports/2026/", "path")).toEqual(["reports", "2026"]);
    expect(checkedFolder("/workspace/uploads/a", "path")).toEqual(["a"]);
    expect(() => checkedFolder("/etc", "path")).toThrow(/absolute/);
    expect(() => checkedFolder("a/../../b", "path")).toThrow(/'\.\.'/);
  });

  it("download names are cleaned, never refused", () => {
    expect(downloadName("a/b\\c.txt")).toBe("a_b_c.txt");
    expect(downloadName("..")).toBe("download");
    expect(downloadName("x\u0001y")).toBe("xy");
    expect(Buffer.byteLength(downloadName("é".repeat(300)))).toBeLessThanOrEqual(255);
  });
});

describe("around the names", () => {
  it("types come from a declared type, else the extension", () => {
    expect(mimeTypeOf("a.csv")).toBe("text/csv");
    expect(mimeTypeOf("a.csv", "application/octet-stream")).toBe("text/csv");
    expect(mimeTypeOf("a.bin", "image/png")).toBe("image/png");
    expect(mimeTypeOf("a.bin", "text/html\r\nx: y")).toBe("application/octet-stream");
    expect(mimeTypeOf("noext")).toBe("application/octet-stream");
  });

  it("Content-Disposition carries any name safely", () => {
    expect(contentDisposition('quarterly "report".csv')).toBe(
      "attachment; filename=\"quarterly _report_.csv\"; filename*=UTF-8''quarterly%20%22report%22.csv",
    );
    expect(contentDisposition("Übersicht.pdf")).toContain("filename*=UTF-8''%C3%9Cbersicht.pdf");
  });

  it("reads find's listing of ~/Downloads", () => {
    expect(parseListing("12\t1764630000.5\treport.txt\u00003\t1764630001\tname\twith tab\u0000")).toEqual([
      { name: "report.txt", size: 12, mtimeMs: 1764630000500 },
      { name: "name\twith tab", size: 3, mtimeMs: 1764630001000 },
    ]);
  });

  it("only an upload's body may exceed MAX_REQUEST_BODY_BYTES", () => {
    const env = { MAX_REQUEST_BODY_BYTES: 32 * 1024 * 1024, FILES_MAX_BYTES: 512 * 1024 * 1024 };
    expect(requestBodyLimit("POST", "/computers/comp_1/files", env)).toBe(512 * 1024 * 1024 + 64 * 1024);
    expect(requestBodyLimit("POST", "/computers/comp_1/files?x=1", env)).toBe(512 * 1024 * 1024 + 64 * 1024);
    expect(requestBodyLimit("POST", "/computers/comp_1/files/file_1", env)).toBe(env.MAX_REQUEST_BODY_BYTES);
    expect(requestBodyLimit("POST", "/computers/comp_1/execute", env)).toBe(env.MAX_REQUEST_BODY_BYTES);
    expect(requestBodyLimit("GET", "/computers/comp_1/files", env)).toBe(env.MAX_REQUEST_BODY_BYTES);
  });
});
