#include <stdio.h>
#include <time.h>
#include <stdint.h>
static uint64_t q(int n,uint64_t c,uint64_t l,uint64_t r,uint64_t all){ if(c==all) return 1; uint64_t s=0,f=all&~(c|l|r); while(f){uint64_t b=f&-f; f^=b; s+=q(n,c|b,((l|b)<<1)&all,(r|b)>>1,all);} return s;}
double cpu(){struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t); return t.tv_sec+t.tv_nsec*1e-9;}
int main(){ for(int i=0;i<100;i++){ double a=cpu(); uint64_t s=q(13,0,0,0,(1<<13)-1); printf("%.4f\n",cpu()-a);} }
