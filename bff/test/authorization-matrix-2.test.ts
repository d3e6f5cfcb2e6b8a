// Runs on SQLite only: the rules are the policies' code, the same on both engines; what they read is read by the API tests and authorization-spanning on PostgreSQL
import { authorizationMatrix } from './authorization-matrix.ts';

/** The authorisation matrix (authorization-matrix.ts), shard 2 of 3: every third route of the table. */
authorizationMatrix(1, 3);
