// An organization's model settings (docs/models.md "Models set up in the dashboard", "Budgets and cost headers"):
// the models its owners set up and the budgets of the organization and its keys, for the dashboard's /api.
export {
  createStoredModel,
  deleteStoredModel,
  updateStoredModel,
  type StoredModelView,
} from "@/lib/models/stored/store";
export { createModelBody, updateModelBody } from "@/lib/models/stored/model-input";
export { modelSettings, type ModelSettings } from "@/lib/models/stored/settings";
export { testStoredModel, type ModelTestResult } from "@/lib/models/stored/test-model";
export { BudgetBody, getBudgets, setKeyBudget, setOrganizationBudget } from "@/lib/models/limits/budget-settings";
