'use client';
import './transport';
import { ProbedWidget } from './ProbedWidget';

export default function Widget() {
  return <ProbedWidget />;
}
