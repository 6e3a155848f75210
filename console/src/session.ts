/**
 * The tokens the console signs in with, kept in sessionStorage only: gone when the tab closes, never in a URL,
 * never in localStorage where another tab or a later visitor of a shared machine would find them.
 */
const TOKEN = 'coinop.token';
const ADMIN = 'coinop.adminToken';

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN),
  adminToken: (): string | null => sessionStorage.getItem(ADMIN),
  signIn(token: string | null, adminToken: string | null): void {
    if (token) sessionStorage.setItem(TOKEN, token);
    else sessionStorage.removeItem(TOKEN);
    if (adminToken) sessionStorage.setItem(ADMIN, adminToken);
    else sessionStorage.removeItem(ADMIN);
  },
  signOut(): void {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(ADMIN);
  },
};
