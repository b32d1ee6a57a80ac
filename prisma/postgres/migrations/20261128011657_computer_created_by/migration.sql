-- AlterTable
ALTER TABLE "computers" ADD COLUMN     "createdByUserId" TEXT;

-- AddForeignKey
ALTER TABLE "computers" ADD CONSTRAINT "computers_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
