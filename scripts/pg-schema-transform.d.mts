export function toPostgresSchema(sqliteSchema: string): string;
