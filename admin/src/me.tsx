// Who the signed-in token is (GET /admin/v1/me): its role decides which actions the UI
// offers. The server enforces the same (src/rest/access-table.ts); hiding is a courtesy.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { client, request } from './api';

export type Role = 'reader' | 'editor' | 'admin';
const ORDER: Role[] = ['reader', 'editor', 'admin'];

const MeContext = createContext<Role | null>(null);

export function MeProvider({ children }: { children: ReactNode }) {
  const [role, setRole] = useState<Role | null>(null);
  useEffect(() => {
    let live = true;
    request(client.me.$get, {}).then(
      (r) => live && setRole(r.data.role),
      () => live && setRole('reader'),
    );
    return () => {
      live = false;
    };
  }, []);
  return <MeContext.Provider value={role}>{children}</MeContext.Provider>;
}

/** The signed-in token's role; null while it loads. */
export const useRole = () => useContext(MeContext);

/** True when the signed-in token may do what needs `need` (false while the role loads). */
export function useCan(need: Role): boolean {
  const role = useRole();
  return role !== null && ORDER.indexOf(role) >= ORDER.indexOf(need);
}
