import { headers } from "next/headers";
import { ApiReference } from "@/components/api-reference/api-reference";
import { PageHeader } from "@/components/ui/card";
import { openApiDocument } from "@/lib/routes/openapi/document";
import { referenceOf } from "@/lib/routes/openapi/reference";
import { publicOrigin } from "@/lib/api/public-url";

export const metadata = { title: "API reference" };

const DESCRIPTION =
  "Every operation of the sessions API (/computers) and the model API (/v1), from the same OpenAPI 3.1 document " +
  "the server publishes at /openapi.json. Open one for its parameters, answers and a curl command.";

export default async function ApiReferencePage() {
  const origin = publicOrigin(await headers());
  return (
    <div>
      <PageHeader title={metadata.title} description={DESCRIPTION} />
      <ApiReference sections={referenceOf(openApiDocument(origin), origin)} origin={origin} />
    </div>
  );
}
