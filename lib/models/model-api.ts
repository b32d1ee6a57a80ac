// The /v1 surface's route handler and its own request schemas, for Next's catch-all routes and the documents
// that describe the surface (`/openapi.json`): one source, so what they advertise is what /v1 accepts.
export { nextModelRoute } from "@/lib/models/gateway/next-route";
export { chatCompletionSchema, completionSchema, embeddingSchema } from "@/lib/models/gateway/schemas";
export { modelRouteList } from "@/lib/models/gateway/route-table";
export { responsesCreateSchema, type InputItem } from "@/lib/models/responses/schema";
