-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "maxBrowserSessions" INTEGER,
ADD COLUMN     "maxDesktopSessions" INTEGER,
ADD COLUMN     "sessionCreatesPerMinute" INTEGER;
