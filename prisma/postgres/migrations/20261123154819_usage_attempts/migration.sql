-- AlterTable
ALTER TABLE "usage_records" ADD COLUMN     "attempts" TEXT,
ADD COLUMN     "backend" TEXT;
