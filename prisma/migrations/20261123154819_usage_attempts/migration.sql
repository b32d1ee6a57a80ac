-- AlterTable
ALTER TABLE "usage_records" ADD COLUMN "attempts" TEXT;
ALTER TABLE "usage_records" ADD COLUMN "backend" TEXT;
