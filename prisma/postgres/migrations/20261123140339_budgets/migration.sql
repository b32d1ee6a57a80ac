-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "monthlyBudgetUsd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "monthlyBudgetUsd" DOUBLE PRECISION;
