// Operations of this resource group are added here (see ../operations.ts).
export const referenceOperations = {} as const;
