-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_computers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "createdByUserId" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "terminationReason" TEXT,
    "hostId" TEXT NOT NULL,
    "contextId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "idleExpiresAt" DATETIME NOT NULL,
    "lastActivityAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "terminatedAt" DATETIME,
    "maxLifetimeSeconds" INTEGER NOT NULL,
    "inactivityTimeoutSeconds" INTEGER NOT NULL,
    "autoKill" BOOLEAN NOT NULL DEFAULT true,
    "persistent" BOOLEAN NOT NULL DEFAULT false,
    "environmentId" TEXT,
    "useAdvancedProxy" BOOLEAN NOT NULL DEFAULT false,
    "stealth" BOOLEAN NOT NULL DEFAULT false,
    "displayWidth" INTEGER NOT NULL,
    "displayHeight" INTEGER NOT NULL,
    "displayScale" REAL NOT NULL DEFAULT 1,
    CONSTRAINT "computers_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "computers_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "api_keys" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "computers_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_computers" ("apiKeyId", "autoKill", "contextId", "createdAt", "displayHeight", "displayScale", "displayWidth", "environmentId", "expiresAt", "hostId", "id", "idleExpiresAt", "inactivityTimeoutSeconds", "kind", "lastActivityAt", "maxLifetimeSeconds", "organizationId", "persistent", "status", "stealth", "terminatedAt", "terminationReason", "useAdvancedProxy") SELECT "apiKeyId", "autoKill", "contextId", "createdAt", "displayHeight", "displayScale", "displayWidth", "environmentId", "expiresAt", "hostId", "id", "idleExpiresAt", "inactivityTimeoutSeconds", "kind", "lastActivityAt", "maxLifetimeSeconds", "organizationId", "persistent", "status", "stealth", "terminatedAt", "terminationReason", "useAdvancedProxy" FROM "computers";
DROP TABLE "computers";
ALTER TABLE "new_computers" RENAME TO "computers";
CREATE INDEX "computers_organizationId_status_idx" ON "computers"("organizationId", "status");
CREATE INDEX "computers_hostId_status_idx" ON "computers"("hostId", "status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
