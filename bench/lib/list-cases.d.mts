export interface ListCase { q?: string; sort?: 'name' | 'updated'; status?: 'pending' | 'inactive'; label?: string; next?: true }
export declare const LIST_CASES: [string, ListCase][];
export declare function pickCases(names?: string): [string, ListCase][];
export declare function caseOptions<C extends { prompts: { list(o: { limit: number } & Omit<ListCase, 'next'>): Promise<{ nextCursor: string | null }> } }>(core: C, given: ListCase): Promise<Omit<ListCase, 'next'> & { cursor?: string }>;
