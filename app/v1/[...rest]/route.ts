// Any other path under /v1: a 404 in the OpenAI envelope (not Next's HTML page).
import { unknownPath } from "@/lib/models/routes";

export const dynamic = "force-dynamic";

export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE };
