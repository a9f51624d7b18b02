// Package fanout maps a function over N inputs with a bounded number of
// workers and hands the results back in input order, so that a command
// reading many files prints what the sequential loop printed.
package fanout

import "sync"

// Each calls work(i) for i in [0, n) on at most workers goroutines and
// emit(i, v) for each result in input order, on the caller's goroutine.
//
// At most 2*workers results are in flight or waiting for emit, so the
// memory held stays bounded however large n is. The first error by input
// order (from work or emit) stops the run: no new item is started, the
// items in flight finish and are dropped, and that error is returned, as
// the sequential loop would have returned it. workers < 1 means 1.
func Each[T any](n, workers int, work func(i int) (T, error), emit func(i int, v T) error) error {
	if n <= 0 {
		return nil
	}
	workers = max(1, min(workers, n))
	type result struct {
		v   T
		err error
	}
	slots := make([]chan result, n)
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	tokens := make(chan struct{}, 2*workers) // items started and not yet emitted
	jobs := make(chan int)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the feeder: starts items in order while tokens last
		defer wg.Done()
		defer close(jobs)
		for i := range n {
			select {
			case tokens <- struct{}{}:
			case <-done:
				return
			}
			select {
			case jobs <- i:
			case <-done:
				return
			}
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				v, err := work(i)
				slots[i] <- result{v, err}
			}
		}()
	}
	var err error
	for i := range n {
		r := <-slots[i]
		slots[i] = nil
		<-tokens
		err = r.err
		if err == nil {
			err = emit(i, r.v)
		}
		if err != nil {
			break
		}
	}
	close(done)
	wg.Wait()
	return err
}
