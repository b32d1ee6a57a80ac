-- AlterTable
ALTER TABLE "organizations" ADD COLUMN "maxBrowserSessions" INTEGER;
ALTER TABLE "organizations" ADD COLUMN "maxDesktopSessions" INTEGER;
ALTER TABLE "organizations" ADD COLUMN "sessionCreatesPerMinute" INTEGER;
