-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "monthlyBudgetUsd" REAL;

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN "monthlyBudgetUsd" REAL;
