import { authorizationMatrix } from './authorization-matrix.ts';

/** The authorisation matrix (authorization-matrix.ts), shard 1 of 3: every third route of the table. */
authorizationMatrix(0, 3);
