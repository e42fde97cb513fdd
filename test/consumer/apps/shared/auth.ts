// The app's own login, reduced to what the consumer test needs: the signed-in user is named by the `user` cookie.
// A real app looks its session up here (a signed cookie, a session store…).
export async function getUser(request: Request): Promise<{ id: string } | null> {
  const cookie = request.headers.get('cookie') ?? '';
  const id = /(?:^|;\s*)user=([\w-]{1,64})(?:;|$)/.exec(cookie)?.[1];
  return id ? { id } : null;
}
