package verify

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

func TestZZPark(t *testing.T) {
	ns := time.Nanosecond
	k := gmp.DefaultCosts()
	k.Newproc, k.Schedule, k.Execute, k.ChanOp = 174*ns, 42*ns, 126*ns, 84*ns
	k.ScheduleExit, k.ScheduleYield = 96*ns, 152*ns
	park := 128 * ns
	for _, name := range []string{"mutex-starvation", "mutex-retake", "sem-heavy", "burst", "nested-submit"} {
		sc, _ := scenarios.Load(name)
		for i := 0; i < 1; i++ {
			c := nanosleepSyscalls(afterPrelude(sc, sc.ConfigWith(scenarios.Overrides{})))
			c.Costs = k
			if i == 1 {
				c.Costs.Execute -= park - k.Schedule
				c.Costs.Schedule = park
			}
			var mk, pre, mig, ut []float64
			for seed := uint64(1); seed <= 10; seed++ {
				cc := c
				cc.Seed, cc.Noise = seed, true
				o, _, err := Model(sc.Program(), cc)
				if err != nil {
					t.Fatal(err)
				}
				mk = append(mk, float64(o.Makespan.Microseconds())/1000)
				pre = append(pre, float64(o.Preempted))
				mig = append(mig, float64(o.Migrations))
				ut = append(ut, o.Utilisation*100)
			}
			for _, v := range [][]float64{mk, pre, mig, ut} {
				slices.Sort(v)
			}
			fmt.Printf("%s %d mk %.3f pre %.1f mig %.1f [%v..%v] ut %.1f\n", name, i, median(mk), median(pre), median(mig), mig[0], mig[9], median(ut))
		}
	}
}
