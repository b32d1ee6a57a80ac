// @needs nothing
import { describe, expect, it } from "vitest";
import { IMAGE_PACKAGES, imageVersion } from "@/lib/computers/desktop/image";

describe("desktop base image", () => {
  it("has a version named after its suite and a hash of its recipe", () => {
    expect(imageVersion()).toMatch(/^bookworm-[0-9a-f]{12}$/);
  });

  it("contains what a desktop needs: X server, window manager, terminal, browser, input and screenshot tools", () => {
    for (const pkg of ["xvfb", "openbox", "xterm", "chromium", "xdotool", "imagemagick", "tini", "sudo"]) {
      expect(IMAGE_PACKAGES).toContain(pkg);
    }
  });
});
