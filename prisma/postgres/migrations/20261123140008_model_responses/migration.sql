-- CreateTable
CREATE TABLE "model_responses" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_responses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "model_responses_organizationId_createdAt_idx" ON "model_responses"("organizationId", "createdAt");

-- AddForeignKey
ALTER TABLE "model_responses" ADD CONSTRAINT "model_responses_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
