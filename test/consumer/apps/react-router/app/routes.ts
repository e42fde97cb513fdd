import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('hooks', 'routes/hooks.tsx'),
  // A resource route (no component): the companion proxy on createAvatarHandler, for every method and sub-path.
  route('api/avatar/*', 'routes/api.avatar.ts'),
] satisfies RouteConfig;
