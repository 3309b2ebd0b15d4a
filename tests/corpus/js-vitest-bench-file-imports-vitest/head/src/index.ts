export const parse = (s: string): string[] => s.split("/");
