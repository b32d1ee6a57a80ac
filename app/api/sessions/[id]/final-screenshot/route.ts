// GET /api/sessions/{id}/final-screenshot: the last screen of an ended session
// (taken as it ended, kept 7 days), for the member's organization.
import { withMember } from "@/lib/routes/with-member";
import { readFinalScreenshotAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member, params }) => {
  const shot = await readFinalScreenshotAs(member, params.id!);
  return new Response(new Uint8Array(shot.data), {
    headers: {
      "content-type": shot.mime,
      "cache-control": "private, max-age=3600",
      "last-modified": shot.takenAt.toUTCString(),
    },
  });
});
