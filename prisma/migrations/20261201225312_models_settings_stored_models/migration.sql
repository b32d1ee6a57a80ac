-- CreateTable
CREATE TABLE "stored_models" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "apiKeySealed" TEXT,
    "apiKeyHint" TEXT,
    "aliases" TEXT NOT NULL DEFAULT '[]',
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "stored_models_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "stored_model_revisions" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "revision" INTEGER NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "stored_models_organizationId_modelId_key" ON "stored_models"("organizationId", "modelId");
