import { authorizationMatrix } from './authorization-matrix.ts';

/** The authorisation matrix (authorization-matrix.ts), shard 3 of 3: every third route of the table. */
authorizationMatrix(2, 3);
