import { describeModernTasks } from './modern-tasks.behaviour.js';

describeModernTasks('in-memory store');
