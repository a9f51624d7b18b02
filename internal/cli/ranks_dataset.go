package cli

import (
	"errors"

	"github.com/tracetab/tracetab/internal/dataset"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/trend"
)

// datasetSummaries reads the ranks' summaries from the Parquet files of
// one or many exports (ranks --dataset DIR) instead of the traces.
func datasetSummaries(e *env, dir string) ([]*ranks.Summary, error) {
	rd, restore := e.datasetReading()
	defer restore()
	r, err := rd.Ranks(dir)
	if err != nil {
		return nil, datasetError(err)
	}
	for _, n := range r.Notes {
		note(e.stderr, n)
	}
	return r.Summaries, nil
}

// datasetRuns reads the trend runs from the Parquet files of one or many
// exports (trend --dataset DIR) instead of the traces.
func datasetRuns(e *env, dir string) ([]*trend.Run, error) {
	rd, restore := e.datasetReading()
	defer restore()
	r, err := rd.Trend(dir)
	if err != nil {
		return nil, datasetError(err)
	}
	for _, n := range r.Notes {
		note(e.stderr, n)
	}
	return r.Runs, nil
}

// datasetError gives a dataset that cannot be read its exit code: a file
// or directory that cannot be read is an unreadable input (3), a tree
// without the dataset a usage error (2).
func datasetError(err error) error {
	var de *dataset.Error
	var ee *dataset.EmptyError
	switch {
	case errors.As(err, &de):
		return &exitError{code: ExitUnreadable, err: err}
	case errors.As(err, &ee):
		return usageErrorf("%v", err)
	}
	return &exitError{code: ExitUnreadable, err: err}
}

// datasetReading reads a dataset's files on every core with the collector
// paced as for many traces (fanoutPacer: a heap goal of at least 32 MB);
// restore sets the target from before again.
func (e *env) datasetReading() (rd dataset.Reading, restore func()) {
	gc := e.fanoutPacer(2) // a dataset is many files (one per trace): paced, but under a small --max-memory
	if gc == nil {
		return dataset.Reading{}, func() {}
	}
	before := setGCPercent(fanoutGCPercent)
	return dataset.Reading{AfterFile: func() { gc.update() }}, func() { setGCPercent(before) }
}
