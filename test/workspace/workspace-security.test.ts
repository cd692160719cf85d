import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { activeMember, ORIGIN, postForm, PASSWORD, sessionCookieOf, signIn } from './staff-session.ts';

/** Every route the app declares under /equipe, with its methods (read from Fastify's own table). */
function workspaceRoutes(printed: string): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  for (const line of printed.split('\n')) {
    const match = /(\/equipe\S*) \(([^)]+)\)/.exec(line);
    if (!match) continue;
    for (const method of match[2]!.split(', ')) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: match[1]!.replace(/:[a-z]+/gi, 'x') });
    }
  }
  return routes;
}

describe('workspace security (docs/workspace.md)', () => {
  const testApp = useTestApp();

  it('prints its routes', () => {
    console.log(testApp.app.printRoutes({ commonPrefix: false }));
    console.log(workspaceRoutes(testApp.app.printRoutes({ commonPrefix: false })));
  });

  it('lets an invited admin set a password and sign in', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'admin@agence.fr');
    const { cookie } = await signIn(app, 'admin@agence.fr');
    const home = await app.inject({ url: '/equipe', headers: { cookie } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Se déconnecter');
  });
});
