import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../staff/activity.js';

/** The signed-in admin who makes a change (set by requireAdmin), as the activity log names them. */
export function actorOf(request: FastifyRequest): Actor {
  const user = request.user;
  if (!user) throw new Error('actorOf: the route has no requireAdmin preHandler');
  return { id: user.id, name: user.name, email: user.email };
}
