// Row keys for React lists; fresh on every load so restored drafts never collide.
let counter = 0;
export const newKey = () => `k${++counter}`;
