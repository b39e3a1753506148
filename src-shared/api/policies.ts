// Operations of this resource group are added here (see ../operations.ts).
export const policyOperations = {} as const;
