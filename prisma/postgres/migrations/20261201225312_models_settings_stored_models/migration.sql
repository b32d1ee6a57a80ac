-- CreateTable
CREATE TABLE "stored_models" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "apiKeySealed" TEXT,
    "apiKeyHint" TEXT,
    "aliases" TEXT NOT NULL DEFAULT '[]',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "stored_models_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stored_model_revisions" (
    "id" INTEGER NOT NULL,
    "revision" INTEGER NOT NULL,

    CONSTRAINT "stored_model_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "stored_models_organizationId_modelId_key" ON "stored_models"("organizationId", "modelId");

-- AddForeignKey
ALTER TABLE "stored_models" ADD CONSTRAINT "stored_models_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
